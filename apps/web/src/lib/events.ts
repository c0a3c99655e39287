import mitt from 'mitt';

/**
 * The console's global events:
 * - `logout`: anything may ask for the session to end (handled by lib/session.ts);
 * - `changeLogout`: emitted after the server accepted a logout;
 * - `changeMenu`: the user's menu changed, reload it;
 * - `saveInfo`: the user's profile changed, reload it.
 */
export type ConsoleEvents = {
  logout: void;
  changeLogout: void;
  changeMenu: void;
  saveInfo: void;
};

export const events = mitt<ConsoleEvents>();
