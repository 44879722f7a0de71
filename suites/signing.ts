// Suite `signing`: placeholder until its checks are written.
import { defineSuite } from '../src/runner/check.js';

export default defineSuite('signing', 'signing', []);
