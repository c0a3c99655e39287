/**
 * 操作日志: every write recorded by the server, newest first, searched by who, what and when; an
 * expanded row shows the change field by field (components/audit/AuditLog.tsx).
 */
import { AuditLog } from '../../components/audit/AuditLog.tsx';

export default function AuditLogPage() {
  return <AuditLog />;
}
