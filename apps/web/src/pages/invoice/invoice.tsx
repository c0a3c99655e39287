/**
 * 经营发票 (/invoice/jingying) and 机场贵宾厅发票 (/invoice/airport): one page, the route decides the
 * resource. The list and its filters come from the declaration (ResourcePage); this page adds the
 * detail drawer (orders covered, status, file), 登记开票申请 (a member's paid orders, the title and
 * an amount defaulting to what they paid), 开票 (invoice number and PDF) and 驳回/作废 (reason);
 * those drawers and dialogs live in components/invoice/.
 */
import { useState } from 'react';
import { useLocation } from 'react-router';
import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { resourcePermissions } from '@cowork/contract';
import {
  invoice,
  invoiceOperationPermission,
  invoicePaths,
  tripartiteInvoice,
  invoiceStates,
  type InvoiceMove,
} from '@cowork/contract/resources/invoice';
import { ExportButton } from '../../components/ExportButton.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';
import { DetailDrawer } from '../../components/invoice/DetailDrawer.tsx';
import { mayMove, type InvoiceRights } from '../../components/invoice/invoice-rights.ts';
import { IssueDrawer } from '../../components/invoice/IssueDrawer.tsx';
import { RejectDialog } from '../../components/invoice/RejectDialog.tsx';
import { SaveDrawer } from '../../components/invoice/SaveDrawer.tsx';
import { MoveButtons } from '../../components/resource/MoveButtons.tsx';
import { ResourcePage, type ResourceRecord } from '../../components/resource/ResourcePage.tsx';

type Dialog = { kind: 'detail' | InvoiceMove; id: number } | { kind: 'save' } | null;

export default function InvoicePage() {
  const { pathname } = useLocation();
  const resource = pathname.replace(/\/$/, '') === '/invoice/airport' ? tripartiteInvoice : invoice;
  const queryClient = useQueryClient();
  const { can } = usePermission();
  const rights: InvoiceRights = {
    edit: can([resourcePermissions(resource).edit]),
    issue: can([invoiceOperationPermission(resource, 'issue')]),
    void: can([invoiceOperationPermission(resource, 'void')]),
  };
  const [dialog, setDialog] = useState<Dialog>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [resource.key] });
  const done = () => {
    setDialog(null);
    void refresh();
  };
  const act = (kind: InvoiceMove, id: number) => setDialog({ kind, id });

  return (
    <>
      <ResourcePage
        // The route decides the resource: a fresh page (search form, paging) per menu.
        key={resource.key}
        resource={resource}
        toolbar={(filters) => (
          <>
            {rights.edit && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'save' })}>
                登记开票申请
              </Button>
            )}
            <ExportButton path={invoicePaths(resource).export} filters={filters} label={resource.label} />
          </>
        )}
        rowActions={(record: ResourceRecord) => (
          <>
            <Button type="link" size="small" onClick={() => setViewing(record.id)}>
              详情
            </Button>
            <MoveButtons
              compact
              states={invoiceStates}
              status={String(record.status)}
              may={mayMove(rights)}
              onMove={(move) => act(move, record.id)}
            />
          </>
        )}
      />
      <DetailDrawer
        resource={resource}
        id={viewing}
        can={rights}
        onClose={() => setViewing(null)}
        onAction={act}
      />
      <SaveDrawer
        key={`${resource.key}-save`}
        resource={resource}
        open={dialog?.kind === 'save'}
        onClose={() => setDialog(null)}
        onSaved={done}
        onReopen={() => setDialog({ kind: 'save' })}
      />
      <IssueDrawer
        resource={resource}
        id={dialog?.kind === 'issue' ? dialog.id : null}
        onClose={() => setDialog(null)}
        onDone={done}
      />
      <RejectDialog
        resource={resource}
        id={dialog?.kind === 'reject' || dialog?.kind === 'void' ? dialog.id : null}
        voiding={dialog?.kind === 'void'}
        onClose={() => setDialog(null)}
        onDone={done}
      />
    </>
  );
}
