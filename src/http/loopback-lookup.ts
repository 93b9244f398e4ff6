/** The lookup of plain-http host names (localhost...): loopback answers only. Loaded only when needed. */
import { lookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { isLoopbackAddress, notLoopbackError } from './loopback.js';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that keeps only loopback answers: a name resolving elsewhere fails before any connection. */
export function loopbackLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as LookupAddress[];
    const local = list.filter((a) => isLoopbackAddress(a.address));
    if (local.length === 0) return callback(notLoopbackError(hostname, list[0]?.address ?? 'nothing') as NodeJS.ErrnoException, '');
    if ((options as LookupAllOptions).all) return callback(null, local);
    callback(null, local[0].address, local[0].family);
  });
}

