import { randomUUID } from 'node:crypto';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { Database } from './schema.js';

/** The databases the store runs on. */
export type Dialect = 'sqlite' | 'postgres';

// Migrations are written once for both databases with Kysely's schema builder: only types both have, and the
// blob type chosen per dialect. Add a migration with the next number; never edit one that has shipped.

/** Every migration, by name (run in name order). */
export function migrations(dialect: Dialect): Record<string, Migration> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    '0001_store': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('bots')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('game', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('endpoint', 'text', (c) => c.notNull())
          .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('owner_contact', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('token_hash', 'text')
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('status_reason', 'text')
          .addColumn('doctor_report', 'text')
          .addColumn('capacity', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        // A name is unique in its game among the bots not deleted: a deleted bot's name is free again.
        await db.schema.createIndex('bots_game_name').unique().on('bots').columns(['game', 'name']).where(sql.ref('status'), '<>', 'deleted').execute();
        await db.schema.createIndex('bots_game_status').on('bots').columns(['game', 'status']).execute();

        await db.schema
          .createTable('matches')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('game', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('rated', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('seed', 'bigint', (c) => c.notNull())
          .addColumn('config', 'text', (c) => c.notNull())
          .addColumn('job', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('started_at', 'text')
          .addColumn('finished_at', 'text')
          .addColumn('result', 'text')
          .addColumn('abort_reason', 'text')
          .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        // Pages are newest first by (created_at, id), overall and per game; abortRunning looks up by status.
        await db.schema.createIndex('matches_created').on('matches').columns(['created_at', 'id']).execute();
        await db.schema.createIndex('matches_game_created').on('matches').columns(['game', 'created_at', 'id']).execute();
        await db.schema.createIndex('matches_status').on('matches').column('status').execute();

        await db.schema
          .createTable('match_seats')
          .addColumn('match_id', 'text', (c) => c.notNull().references('matches.id'))
          .addColumn('slot', 'integer', (c) => c.notNull())
          .addColumn('bot_id', 'text', (c) => c.references('bots.id'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('rank', 'integer')
          .addColumn('score', 'double precision')
          .addColumn('fault_kind', 'text')
          .addColumn('fault_detail', 'text')
          .addColumn('fault_turn', 'integer')
          .addPrimaryKeyConstraint('match_seats_pk', ['match_id', 'slot'])
          .execute();
        await db.schema.createIndex('match_seats_bot').on('match_seats').columns(['bot_id', 'match_id']).execute();

        await db.schema
          .createTable('replays')
          .addColumn('match_id', 'text', (c) => c.primaryKey().references('matches.id'))
          .addColumn('gz', blob, (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('match_logs')
          .addColumn('match_id', 'text', (c) => c.notNull().references('matches.id'))
          .addColumn('slot', 'integer', (c) => c.notNull())
          .addColumn('gz', blob, (c) => c.notNull())
          .addPrimaryKeyConstraint('match_logs_pk', ['match_id', 'slot'])
          .execute();

        await db.schema
          .createTable('ratings')
          .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id'))
          .addColumn('system', 'text', (c) => c.notNull())
          .addColumn('game', 'text', (c) => c.notNull())
          .addColumn('rating', 'double precision', (c) => c.notNull())
          .addColumn('mu', 'double precision')
          .addColumn('sigma', 'double precision')
          .addColumn('games', 'integer', (c) => c.notNull())
          .addColumn('wins', 'integer', (c) => c.notNull())
          .addColumn('draws', 'integer', (c) => c.notNull())
          .addColumn('losses', 'integer', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('ratings_pk', ['bot_id', 'system'])
          .execute();
        await db.schema.createIndex('ratings_board').on('ratings').columns(['game', 'system', 'rating']).execute();

        await db.schema
          .createTable('rating_history')
          .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id'))
          .addColumn('match_id', 'text', (c) => c.notNull().references('matches.id'))
          .addColumn('system', 'text', (c) => c.notNull())
          .addColumn('before', 'double precision', (c) => c.notNull())
          .addColumn('after', 'double precision', (c) => c.notNull())
          .addColumn('at', 'text', (c) => c.notNull())
          // One change per bot, match and system: a match is rated once, whoever finishes it.
          .addUniqueConstraint('rating_history_once', ['bot_id', 'match_id', 'system'])
          .execute();
        await db.schema.createIndex('rating_history_bot').on('rating_history').columns(['bot_id', 'system', 'at']).execute();

        await db.schema
          .createTable('pair_results')
          .addColumn('game', 'text', (c) => c.notNull())
          .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id'))
          .addColumn('opponent_id', 'text', (c) => c.notNull().references('bots.id'))
          .addColumn('wins', 'integer', (c) => c.notNull())
          .addColumn('draws', 'integer', (c) => c.notNull())
          .addColumn('losses', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('pair_results_pk', ['bot_id', 'opponent_id'])
          .execute();
      },
    },
    // Lists filtered by status (a bot's finished matches) walk this in date order instead of sorting every
    // match of that status; the ladder's per-hour counts read only its game's recent ladder matches.
    '0002_match_indexes': {
      async up(db: Kysely<unknown>) {
        await db.schema.createIndex('matches_status_created').on('matches').columns(['status', 'created_at', 'id']).execute();
        await db.schema.createIndex('matches_game_kind_created').on('matches').columns(['game', 'kind', 'created_at']).execute();
      },
    },
    // With match workers (botarena worker), which one plays or played each match: a killed worker's match is
    // taken up by another, and an organiser sees where each ran.
    '0003_match_worker': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('matches').addColumn('worker', 'text').execute();
      },
    },
    // Fencing (issue 35): each start of a match is an attempt, numbered by its `tries`; the attempt that holds
    // the match renews `alive_until` while it plays. A finish, an abort or a heartbeat of an older attempt is
    // refused, and nobody starts another attempt while the holder's heartbeat is alive.
    '0004_match_attempt_alive': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('matches').addColumn('alive_until', 'text').execute();
      },
    },
    // The arena's identity (issue 35): made once, by the first process that opens the empty store (or the first
    // that migrates an older one), and kept. Workers compare it with the one the queue in Redis is marked with.
    '0005_arena': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('arena')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await sql`insert into arena (id, created_at) values (${randomUUID()}, ${new Date().toISOString()})`.execute(db);
      },
    },
    // The arena's policy (issue 35): what its bots may be and reach, written by the server at each start and read
    // by every worker, so that no worker judges a bot by flags of its own.
    '0006_arena_policy': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('arena').addColumn('policy', 'text').execute();
      },
    },
    // Uploaded code (issue 36): each upload is a version of its bot, kept with its canonical bytes and sha256;
    // it is checked before it becomes the bot's active version, and a refused one keeps its report.
    '0007_bot_versions': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('bot_versions')
          .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id'))
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('sha256', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('expanded', 'integer', (c) => c.notNull())
          .addColumn('code', blob, (c) => c.notNull())
          .addColumn('language', 'text', (c) => c.notNull())
          .addColumn('spec', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('report', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('bot_versions_pk', ['bot_id', 'version'])
          .execute();
        await db.schema.createIndex('bot_versions_sha256').on('bot_versions').column('sha256').execute();
        await db.schema.alterTable('bots').addColumn('active_version', 'integer').execute();
      },
    },
    // Contests (issue 38): a contest and its definition; its entrants, each with the version it plays the final
    // with once frozen; the final's matches, each a `matches` row (kind 'contest', never rated) linked by the
    // plan's key, unique in its contest, so a match of the final is created once whatever crashes.
    '0008_contests': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('contests')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('game', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('definition', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('closes_at', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('frozen_at', 'text')
          .addColumn('started_at', 'text')
          .addColumn('finished_at', 'text')
          .addColumn('results', 'text')
          .execute();
        await db.schema.createIndex('contests_status').on('contests').columns(['status', 'created_at']).execute();
        await db.schema
          .createTable('contest_entries')
          .addColumn('contest_id', 'text', (c) => c.notNull().references('contests.id'))
          .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id'))
          .addColumn('entered_at', 'text', (c) => c.notNull())
          .addColumn('frozen', 'text')
          .addColumn('place', 'integer')
          .addPrimaryKeyConstraint('contest_entries_pk', ['contest_id', 'bot_id'])
          .execute();
        await db.schema
          .createTable('contest_matches')
          .addColumn('contest_id', 'text', (c) => c.notNull().references('contests.id'))
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('match_id', 'text', (c) => c.notNull().unique().references('matches.id'))
          .addPrimaryKeyConstraint('contest_matches_pk', ['contest_id', 'key'])
          .execute();
      },
    },
  };
}

/** Brings the database up to the latest migration (a no-op when it is there); throws the first failure. */
export async function migrate(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    migrationTableName: 'botarena_migrations',
    migrationLockTableName: 'botarena_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`the database could not be migrated${failed ? ` (migration ${failed})` : ''}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
