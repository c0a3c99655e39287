import { useSyncExternalStore } from 'react';

/**
 * The shell's small UI state shared by the header, side menu, layout and session:
 * whether the side menu and the page title are open, and whether the password dialog shows.
 * Logout closes the menu and the title; the layout opens them when a session starts.
 */
export interface ShellState {
  menuOpen: boolean;
  titleOpen: boolean;
  passwordOpen: boolean;
}

let state: ShellState = { menuOpen: false, titleOpen: false, passwordOpen: false };
const listeners = new Set<() => void>();

export function getShellState(): ShellState {
  return state;
}

export function setShellState(patch: Partial<ShellState>): void {
  state = { ...state, ...patch };
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useShellState(): ShellState {
  return useSyncExternalStore(subscribe, getShellState, getShellState);
}

export const toggleMenu = () => setShellState({ menuOpen: !state.menuOpen });
export const openPasswordModal = () => setShellState({ passwordOpen: true });
export const closePasswordModal = () => setShellState({ passwordOpen: false });
