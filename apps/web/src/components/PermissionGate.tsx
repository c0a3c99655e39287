import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Result } from 'antd';
import { messages } from '@cowork/contract';
import { hasPermission, useUserInfo } from '../lib/user.ts';

/** The user's permission codes and a test against required ones (`*` grants everything). */
export function usePermission() {
  const { user } = useUserInfo();
  const permissions = user.permissions ?? [];
  return {
    permissions,
    can: (required: readonly string[]) => hasPermission(permissions, required),
  };
}

export interface PermissionGateProps {
  /** Codes of which the user needs at least one, e.g. `['system:log:view']`. */
  permissions: string[];
  children?: ReactNode;
  /** Shown instead of the children when the user lacks the permissions. */
  fallback?: ReactNode;
  /** Where to send the user instead, when no fallback is given. */
  redirect?: string;
}

/**
 * Shows its children only to users holding one of `permissions`; otherwise the
 * fallback, a redirect, or the message 您没有权限进行此操作.
 *
 * @example <PermissionGate permissions={['system:log:view']}><LogTable /></PermissionGate>
 */
export function PermissionGate({ permissions, children, fallback, redirect }: PermissionGateProps) {
  const { can } = usePermission();
  if (can(permissions)) return <>{children}</>;
  if (fallback !== undefined) return <>{fallback}</>;
  if (redirect) return <Navigate to={redirect} replace />;
  return <Result status="403" subTitle={messages.noPermission} />;
}

export default PermissionGate;
