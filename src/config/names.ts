// Names the config file and its readers share: the file looked for, and the target no file may define.
export const CONFIG_FILE_NAME = 'conformance.config.json';
/** The built-in target's name: reserved, a config file may not define it. */
export const BUILTIN_TARGET = 'local';
