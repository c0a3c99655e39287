/**
 * 员工 of a company (企业 详情): its one staff list, searched, added, edited, imported from Excel
 * (with the template) and exported. 离职 and 删除 end at once everything the company gave the person
 * (its groups' doors, its cards' bookings); the server says what ended and the screen shows that
 * sentence. 可开的门 lists every door the person can open now, why and until when.
 */
import { useState } from 'react';
import { App, Button, DatePicker, Form, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { resourcePermissions } from '@cowork/contract';
import {
  companyStaff,
  companyStaffEndpoints,
  companyStaffLeaveBody,
  staffEndedSentence,
  type StaffEndedAnswer,
} from '@cowork/contract/resources/company';
import { member } from '@cowork/contract/resources/member';
import { DoorListDrawer } from '../access/AccessViews.tsx';
import { ResourceExcelImport } from '../ExcelImport.tsx';
import { ExportButton } from '../ExportButton.tsx';
import { usePermission } from '../PermissionGate.tsx';
import { contractRules } from '../resource/contract-rules.ts';
import { ResourcePage, type ResourceRecord } from '../resource/ResourcePage.tsx';
import { fromBusinessTime, toBusinessTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';

/** What the staff actions need of a row. */
interface Person {
  id: number;
  name: string;
  memberId: number;
}

const personOf = (record: ResourceRecord): Person => ({
  id: record.id,
  name: String(record.name),
  memberId: Number(record.memberId),
});

/** How long a sentence of what ended stays up: it can name several groups and cards. */
const SENTENCE_SECONDS = 8;

const isEnded = (answer: unknown): answer is StaffEndedAnswer =>
  typeof answer === 'object' && answer !== null && 'groups' in answer && 'cards' in answer;

export function CompanyStaff({ companyId }: { companyId: number }) {
  const { can } = usePermission();
  const { message } = App.useApp();
  const [leaving, setLeaving] = useState<Person>();
  const [doors, setDoors] = useState<Person>();
  const canEdit = can([resourcePermissions(companyStaff).edit]);
  // The door list is a member's: it asks for the right to see members (the server checks it).
  const canSeeDoors = can([resourcePermissions(member).view]);
  return (
    <>
      <ResourcePage
        resource={companyStaff}
        inAddress={false}
        fixedFilters={{ companyId: String(companyId) }}
        toolbar={(filters) => (
          <>
            <ResourceExcelImport resource={companyStaff} query={{ companyId }} />
            <ExportButton path={companyStaffEndpoints.export} filters={filters} label="企业员工" />
          </>
        )}
        removedMessage={(answer, removed) =>
          isEnded(answer)
            ? staffEndedSentence(
                '已从员工列表删除',
                removed.map((r) => String(r.name)),
                answer,
              )
            : `已删除 ${removed.length} 名员工`
        }
        rowActions={(record) => (
          <>
            {canEdit && record.status === 'active' && (
              <Button type="link" size="small" onClick={() => setLeaving(personOf(record))}>
                离职
              </Button>
            )}
            {canSeeDoors && (
              <Button type="link" size="small" onClick={() => setDoors(personOf(record))}>
                可开的门
              </Button>
            )}
          </>
        )}
      />
      {leaving && (
        <LeaveModal
          person={leaving}
          onClose={() => setLeaving(undefined)}
          onDone={(text) => message.success({ content: text, duration: SENTENCE_SECONDS })}
        />
      )}
      {doors && (
        <DoorListDrawer
          member={{ id: doors.memberId, name: doors.name }}
          onClose={() => setDoors(undefined)}
        />
      )}
    </>
  );
}

const leftAtRules = contractRules('离职日期', companyStaffLeaveBody.shape.leftAt);

/** 离职: when (today unless told), a confirmation, then the server's sentence of what ended. */
function LeaveModal({
  person,
  onClose,
  onDone,
}: {
  person: Person;
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ leftAt?: string | null }>();
  const leave = useSubmit({
    mutationFn: ({ leftAt }: { leftAt?: string | null }) =>
      api.post<StaffEndedAnswer>(companyStaffEndpoints.leave, {
        ids: [person.id],
        leftAt: leftAt ?? undefined,
      }),
    onSuccess: async (ended) => {
      onDone(staffEndedSentence('已离职', [person.name], ended));
      onClose();
      await queryClient.invalidateQueries({ queryKey: [companyStaff.key] });
      await queryClient.invalidateQueries({ queryKey: ['kreator-user-group'] });
      await queryClient.invalidateQueries({ queryKey: ['company-card'] });
      await queryClient.invalidateQueries({ queryKey: ['company'] });
    },
  });
  return (
    <Modal
      open
      title={`办理离职：${person.name}`}
      okText="确认离职"
      okButtonProps={{ danger: true }}
      confirmLoading={leave.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph>
        离职后立即移出该企业的所有门禁组（设备随即同步），也不能再用该企业的会议卡支付；员工记录保留，可随时重新添加。
      </Typography.Paragraph>
      <Form form={form} name="company-staff-leave" layout="vertical" onFinish={(v) => leave.mutate(v)}>
        <Form.Item name="leftAt" label="离职日期" extra="不填则为现在" {...leftAtRules}>
          <LeftAtPicker />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function LeftAtPicker({ value, onChange }: { value?: string | null; onChange?: (v: string | null) => void }) {
  return (
    <DatePicker
      showTime
      needConfirm={false}
      style={{ width: '100%' }}
      value={fromBusinessTime(value, 'datetime')}
      onChange={(d) => onChange?.(toBusinessTime(d, 'datetime'))}
    />
  );
}
