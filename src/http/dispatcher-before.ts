// Imported before undici (src/http/undici.ts), so that it runs first. Node's own fetch is built on the undici bundled
// with Node, loaded (synchronously) the first time fetch is called; loading it installs Node's Agent as the process's
// global dispatcher. undici 7, loaded next, keeps a global dispatcher it finds. Without this, undici 7 installs its
// own, and Node 20's fetch then goes through it and fails ("invalid content-length header") in the program that
// imported us. A data: URL needs no network; its answer is not wanted.
globalThis.fetch('data:,').catch(() => undefined);
