export * from './constants.ts';
export * from './messages.ts';
export * from './checks.ts';
export * from './validators.ts';
export * from './endpoints.ts';
export * from './api.ts';
export * from './routes.ts';
export * from './resource.ts';
