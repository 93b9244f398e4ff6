// svc's bash completion script, in a real bash: see test/helpers/completion-cases.ts.
import { completionCases } from '../helpers/completion-cases.js';

completionCases('bash');
