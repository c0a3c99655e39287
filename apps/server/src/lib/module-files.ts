/**
 * The extension of this server's own files: sources under tsx and vitest, compiled JavaScript under
 * `npm start` (apps/server/dist). Modules and their demo rows are found by file name at start.
 */
export const ownFileExtension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
