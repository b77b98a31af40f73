/** A wait the command's stop gives up at a bound: an exit never hangs on it. */
export { waitAtMost as within } from '../providers/filesystem/wait-at-most.js';
