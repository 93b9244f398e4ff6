/** The two token headers every request carries (spec: Authentication). */
export const TOKEN_ID_HEADER = 'X-Service-API-Token-Id';
export const TOKEN_SECRET_HEADER = 'X-Service-API-Token-Secret';
