import { Type, type Static } from 'typebox';

/** `:id/seats/:slot` of a person seat. */
export const SeatParams = Type.Object({ id: Type.String({ maxLength: 128 }), slot: Type.Integer({ minimum: 0, maximum: 63 }) });
export type SeatParams = Static<typeof SeatParams>;

/** `?token=` of the play stream (EventSource sends no headers). */
export const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 512 })) }, { additionalProperties: false });
export type TokenQuery = Static<typeof TokenQuery>;

/** `POST /api/matches/:id/seats/:slot/move`. */
export const MoveBody = Type.Object(
  {
    line: Type.String({
      maxLength: 2000,
      description: 'what the person typed: a move as the game\'s prompt asks for it (tic-tac-toe "1-2"); smart-dog: one wire line',
    }),
    token: Type.Optional(Type.String({ maxLength: 512, description: 'the seat\'s person token, when not sent as "Authorization: Bearer TOKEN"' })),
  },
  { additionalProperties: false },
);
export type MoveBody = Static<typeof MoveBody>;

/** The answer to a move the seat's ask took. */
export const MoveAnswer = Type.Object({ accepted: Type.Literal(true) });
export type MoveAnswer = Static<typeof MoveAnswer>;
