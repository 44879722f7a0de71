// Open points of the catalog that no switch of the reference server can show, with why: a black-box run cannot
// tell one reading from the other, so there is nothing for a check to record or to be wrong about.
export const UNSWITCHABLE: Readonly<Record<string, string>> = {
  'REQ-STATE-06': 'no endpoint of the interface changes an account, so no transition of one can be observed',
  'REQ-VER-02': 'a run sees one version of the interface; how later ones are introduced is not observable in it',
};
