import { McpKitError } from '../errors/index.js';

/** Bad input that is the user's to fix: one line, exit status 2. */
export class UsageError extends McpKitError {
  constructor(message: string) {
    super('BAD_ARGUMENTS', message);
  }
}
