// Open points of the catalog that no switch of the reference server can show, with why: a black-box run cannot
// tell one reading from the other, so there is nothing for a check to record or to be wrong about.
export const UNSWITCHABLE: Readonly<Record<string, string>> = {
  'REQ-STATE-06': 'no endpoint of the interface changes an account, so no transition of one can be observed',
  'REQ-WHKEP-10':
    'which endpoints create customers, accounts or order requests shows only by creating them: a default run creates none (orders through the USSD stocks menu only with --allow-mutations), and the suite cannot guess paths the spec does not name',
  'REQ-VER-02': 'a run sees one version of the interface; how later ones are introduced is not observable in it',
};
