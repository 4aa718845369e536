/**
 * The answer to an init message: its content is ignored by tic-tac-toe, Connect Four and Tron (their
 * init-answer schemas accept any JSON value), but it must be one line of JSON (anything else is noted as a
 * fault at turn 0, which costs nothing there). This is the conventional form.
 */
export interface InitAnswer {
  name?: string;
}
