/** Ctrl-C at the review prompt: the review stops, every undecided proposal stays pending. */
export class ReviewInterrupted extends Error {
  constructor() {
    super('review interrupted: every undecided proposal stays pending');
    this.name = 'ReviewInterrupted';
  }
}
