// svc's fish completion script, in a real fish: see test/helpers/completion-cases.ts.
import { completionCases } from '../helpers/completion-cases.js';

completionCases('fish');
