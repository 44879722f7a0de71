// Open points of the catalog that no switch of the reference server can show, with why: a default run never sees
// them, so no run of the choices matrix could tell one reading from another.
export const UNSWITCHABLE: Readonly<Record<string, string>> = {
  'REQ-STATE-07':
    'an order request shows its transitions only once one is placed and canceled, which a run does only with --allow-mutations (never on a default run, so never in the choices matrix); ussd.flow.order-cancel then records what it saw, as INFO',
  'REQ-WHKEP-10':
    'which endpoints create customers, accounts or order requests shows only by creating them: a default run creates none (orders through the USSD stocks menu only with --allow-mutations), and the suite cannot guess paths the spec does not name',
  'REQ-VER-02': 'a run sees one version of the interface; how later ones are introduced is not observable in it',
};
