/**
 * Smart-dog's wire, as TypeBox values. Smart-dog speaks text lines, not JSON, so what a schema means here is
 * the form of a line: a command a bot sends is a string whose pattern the schema gives (the SDK's
 * SmartDogCommand is its static type). None of these values has an `$id`, so `npm run generate` publishes no
 * file in schemas/ for smart-dog: those files describe JSON messages, and a smart-dog bot never sends or
 * receives a JSON document (docs/games/smartdog.md describes every line).
 */
import { Type, type Static } from 'typebox';

/**
 * A smart-dog command line (the game speaks text lines over TCP, not JSON): move or bark with one of your
 * dogs, then `end` to finish your turn.
 */
export const SmartDogCommand = Type.Union(
  [
    Type.TemplateLiteral('do ${number} move ${"up"|"down"|"left"|"right"}', { description: 'Move dog ID one cell.' }),
    Type.TemplateLiteral('do ${number} bark', { description: 'Dog ID barks.' }),
    Type.Literal('end', { description: 'Ends your turn.' }),
  ],
  { title: 'Smart-dog: a command line', description: 'One line a bot sends during its turn (without its newline).' },
);
export type SmartDogCommand = Static<typeof SmartDogCommand>;
