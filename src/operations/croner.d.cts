import type { Cron } from 'croner';

declare const croner: { Cron: typeof Cron };
export = croner;
