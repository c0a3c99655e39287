/**
 * Database tables (Drizzle, pg-core), one file per domain under schema/. One dialect serves both
 * engines: embedded PGlite and PostgreSQL. Every time is `timestamp with time zone`. This file
 * gathers them: the server imports its tables from here, and drizzle-kit (drizzle.config.ts) reads
 * every table through it. The schema files import nothing but drizzle and each other, so drizzle-kit
 * can load them on their own.
 */
export * from './schema/staff.ts';
export * from './schema/system.ts';
export * from './schema/members.ts';
export * from './schema/companies.ts';
export * from './schema/content.ts';
export * from './schema/buildings.ts';
export * from './schema/products.ts';
export * from './schema/orders.ts';
export * from './schema/leads.ts';
export * from './schema/devices.ts';
export * from './schema/door-access.ts';
export * from './schema/door-operations.ts';
export * from './schema/open-platform.ts';
