// The audit trail's door for the services and the edge: the rows are src/db/audit-events.ts's.
export {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditEventInput,
  type AuditEventView,
  listAuditEvents,
  recordAudit,
  recordConfigSaved,
} from "../db/audit-events";
