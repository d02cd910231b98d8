/** Resolves after `ms` milliseconds: the default of every `sleep` option, which tests replace to hold time still. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
