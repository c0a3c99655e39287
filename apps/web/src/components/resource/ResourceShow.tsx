/**
 * The detail drawer of one record, from its declaration: it reads the record from the resource's
 * detail path, shows the moves open to it (a resource with state: `states`, MoveButtons) and, unless
 * a page arranges its own, every declared field as its list shows it. A page adds its own sections
 * (a timeline, the orders an invoice covers, dialogs) as `children(record)`.
 *
 * @example
 *   <ResourceShow resource={lead} detailPath={resourcePaths(lead).detail} id={viewing}
 *     onClose={() => setViewing(null)} fieldsTitle="线索信息">
 *     {(record) => <Timeline … />}
 *   </ResourceShow>
 */
import { type ReactNode } from 'react';
import { Descriptions, Drawer, Space, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { Field, Move, ResourceDef } from '@cowork/contract';
import { api } from '../../lib/request.ts';
import { ReferenceCell } from './field-input.tsx';
import { MoveButtons } from './MoveButtons.tsx';

interface Moves<M extends string> {
  states: { moves: Record<M, Move>; movesFrom: (status: string) => M[] };
  may: (move: M) => boolean;
  onMove: (move: M) => void;
}

export function ResourceShow<R extends { id: number; status?: string }, M extends string = never>({
  resource,
  detailPath,
  id,
  onClose,
  size = 640,
  fieldsTitle,
  omit = [],
  moves,
  children,
}: {
  resource: Pick<ResourceDef, 'key' | 'label' | 'fields'>;
  /** The resource's `detail` path; the record is read from `{detailPath}/{id}`. */
  detailPath: string;
  /** The record shown; null closes the drawer. */
  id: number | null;
  onClose: () => void;
  size?: number;
  /** Shows every declared field under this title (none when the page arranges its own). */
  fieldsTitle?: string;
  /** Fields left out of that list (a code whose name another field shows). */
  omit?: readonly string[];
  moves?: Moves<M>;
  children?: (record: R) => ReactNode;
}) {
  const detail = useQuery({
    queryKey: [resource.key, 'detail', id],
    queryFn: () => api.getById<R>(detailPath, id!),
    enabled: id !== null,
  });
  const record = detail.data;
  const shown = Object.entries(resource.fields).filter(([key]) => !omit.includes(key));
  const values = new Map(record ? Object.entries(record) : []);
  return (
    <Drawer
      title={`${resource.label}详情`}
      open={id !== null}
      size={size}
      onClose={onClose}
      destroyOnHidden
      extra={
        moves &&
        record?.status !== undefined && (
          <Space>
            <MoveButtons states={moves.states} status={record.status} may={moves.may} onMove={moves.onMove} />
          </Space>
        )
      }
    >
      {detail.isLoading || !record ? (
        <Spin />
      ) : (
        <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
          {fieldsTitle && (
            <Descriptions title={fieldsTitle} column={2} bordered size="small">
              {shown.map(([key, field]: [string, Field]) => (
                <Descriptions.Item key={key} label={field.label} span={field.kind === 'textarea' ? 2 : 1}>
                  <ReferenceCell field={field} value={values.get(key)} />
                </Descriptions.Item>
              ))}
            </Descriptions>
          )}
          {children?.(record)}
        </Space>
      )}
    </Drawer>
  );
}
