/**
 * The events an endpoint wants: every subscribable type as a checkbox, grouped by what it is about
 * (门禁, 设备, 订单, …), with 全选 over all and a check per group. `webhook.test` is not offered:
 * 发送测试 sends it to the endpoint tested whatever it subscribes to.
 */
import { Checkbox, Space, Typography } from 'antd';
import { webhookEventLabels } from '@cowork/contract';
import { subscribableEventTypes } from '@cowork/contract/resources/webhook';

type Subscribable = (typeof subscribableEventTypes)[number];

/** A group's name by the first segment of its types (`door.opened` → 门禁). */
const groupLabels: Record<string, string> = {
  door: '门禁',
  device: '设备',
  space: '空间',
  order: '订单',
  booking: '预订',
  invoice: '发票',
  member: '会员',
  enterprise: '企业成员',
  alert: '告警通知',
};

export interface EventGroup {
  key: string;
  label: string;
  types: Subscribable[];
}

/** The subscribable types in groups, in the catalogue's order. */
export const eventGroups: EventGroup[] = subscribableEventTypes.reduce<EventGroup[]>((groups, type) => {
  const key = type.split('.')[0];
  const group = groups.find((g) => g.key === key);
  if (group) group.types.push(type);
  else groups.push({ key, label: groupLabels[key] ?? key, types: [type] });
  return groups;
}, []);

/** The Chinese names of event types, for a tooltip or a list ("门已打开、设备离线"). */
export const eventNames = (types: readonly string[]) =>
  types.map((type) => (type in webhookEventLabels ? webhookEventLabels[type as Subscribable] : type));

/** A check that is on when all `types` are chosen, half on when some are; it adds or drops them all. */
function AllOf({
  types,
  chosen,
  onChange,
  children,
}: {
  types: readonly string[];
  chosen: Set<string>;
  onChange: (next: string[]) => void;
  children: string;
}) {
  const held = types.filter((type) => chosen.has(type)).length;
  return (
    <Checkbox
      checked={held === types.length}
      indeterminate={held > 0 && held < types.length}
      onChange={(e) =>
        onChange(
          e.target.checked
            ? [...chosen, ...types.filter((type) => !chosen.has(type))]
            : [...chosen].filter((type) => !types.includes(type)),
        )
      }
    >
      {children}
    </Checkbox>
  );
}

export function EventPicker({
  id,
  value,
  onChange,
}: {
  id?: string;
  value?: string[];
  onChange?: (next: string[]) => void;
}) {
  const chosen = new Set(value ?? []);
  // Kept in the catalogue's order, so the body sent (and the audit log) reads the same each time.
  const change = (next: string[]) => onChange?.(subscribableEventTypes.filter((type) => next.includes(type)));
  return (
    <div id={id} className="open-event-picker">
      <Space orientation="vertical" size={8} style={{ display: 'flex' }}>
        <Space>
          <AllOf types={subscribableEventTypes} chosen={chosen} onChange={change}>
            全选
          </AllOf>
          <Typography.Text type="secondary">
            已选 {chosen.size} / {subscribableEventTypes.length} 个事件
          </Typography.Text>
        </Space>
        {eventGroups.map((group) => (
          <div key={group.key} role="group" aria-label={group.label}>
            <AllOf types={group.types} chosen={chosen} onChange={change}>
              {group.label}
            </AllOf>
            <div style={{ paddingLeft: 24 }}>
              <Checkbox.Group
                value={group.types.filter((type) => chosen.has(type))}
                onChange={(picked) =>
                  change([
                    ...[...chosen].filter((type) => !group.types.includes(type as Subscribable)),
                    ...picked,
                  ])
                }
                options={group.types.map((type) => ({
                  value: type,
                  label: <span title={type}>{webhookEventLabels[type]}</span>,
                }))}
              />
            </div>
          </div>
        ))}
      </Space>
    </div>
  );
}
