// The styles of the terminal report (--reporter), in a module of their own so that the command line names them
// without loading the reporter.

/** How much the terminal report says; the file reports always hold everything. */
export const HUMAN_STYLES = ['default', 'verbose', 'dot'] as const;
export type HumanStyle = (typeof HUMAN_STYLES)[number];
