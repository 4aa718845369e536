// The rows and values of contests, as the store speaks them (re-exported by records.ts with the others).
export type ContestStatus = 'entry' | 'frozen' | 'running' | 'done';

/** A contest as the store keeps it. */
export interface ContestRow {
  id: string;
  game: string;
  name: string;
  status: ContestStatus;
  /** the definition, as given (the contest rules checked it) */
  definition: unknown;
  /** when the entry window closes (the runner freezes the contest then); null: when the admin says */
  closesAt: string | null;
  createdAt: string;
  frozenAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** the published results, once the final is done */
  results: unknown;
}

/** What creating a contest gives. */
export interface NewContestRow {
  /** a short id (letters, digits, - _ .), unique */
  id: string;
  game: string;
  name: string;
  definition: unknown;
  closesAt?: string | null;
}

/** A bot entered in a contest, with its name as it is now. */
export interface ContestEntryRow {
  contestId: string;
  botId: string;
  name: string;
  builtin: boolean;
  enteredAt: string;
  /** what it plays the final with, fixed at the freeze (JSON as given); null before */
  frozen: unknown;
  /** its place in the final's seeding order (0 first), fixed at the freeze; null before */
  place: number | null;
}
