/**
 * A resource declared once: its fields (Chinese label, zod schema, how it is searched, listed and
 * edited), its endpoints and its permission codes. The server builds page/detail/save/edit/remove/
 * edit-published/list from it (apps/server/src/lib/crud.ts); the web builds the search form, table
 * and edit form from it (apps/web/src/components/resource/ResourcePage.tsx). See docs/resources.md.
 *
 * The resource core, by job: fields.ts (the `Field` union by kind), field-builders.ts (`field.text`
 * and the other builders), field-schemas.ts (the bodies, query and record built from the fields),
 * rich-text.ts (what rich text may hold), and this file (the declaration, its paths, permissions and
 * messages). This file re-exports the others, so importers name only resource.ts.
 *
 * @example
 *   export const source = defineResource({
 *     key: 'csr-source', base: `${prefixes.user}/csr-source`, label: '来源', permission: 'system:source',
 *     fields: { name: field.text('名称', { search: 'like' }), published: field.published() },
 *   });
 */
import { messages } from './messages.ts';
import type { Fields } from './fields.ts';

export * from './fields.ts';
export * from './field-builders.ts';
export * from './field-schemas.ts';
export * from './rich-text.ts';

export type ResourceAction =
  | 'page'
  | 'detail'
  | 'save'
  | 'edit'
  | 'remove'
  | 'editPublished'
  | 'list'
  /** `PUT {res}/publish`: edit-published under a second path the API also answers (opt-in). */
  | 'publish'
  /** `POST {res}/saveOrUpdate`: edits when the body holds an id, creates otherwise (opt-in). */
  | 'saveOrUpdate';

export interface ResourceDef<F extends Fields = Fields, K extends string = string> {
  /** Path segment, e.g. `csr-source`; also the audit log's resource name. */
  key: K;
  /** Full path of the resource, e.g. `/api/user/admin/v1/csr-source`. */
  base: string;
  /** Chinese name of one record, used in titles and messages (新建来源, 来源不存在). */
  label: string;
  /** Permission prefix: `{permission}:view`, `:edit`, `:remove`. */
  permission: string;
  fields: F;
  actions: readonly ResourceAction[];
  /** The field the `list` endpoint shows as an option's label. */
  titleField?: keyof F & string;
  /**
   * The path segment of `save`, `remove` and `saveOrUpdate` where the API names them otherwise
   * (企业门禁组 creates with `create`, its members are added with `add` and deleted with `delete`,
   * 企业会议卡 has `save-update`).
   */
  names?: Partial<Record<'save' | 'remove' | 'saveOrUpdate', string>>;
  defaultSort?: { field: keyof F & string; order: 'ascend' | 'descend' };
}

export const allActions: readonly ResourceAction[] = [
  'page',
  'detail',
  'save',
  'edit',
  'remove',
  'editPublished',
  'list',
];

export function defineResource<const F extends Fields, const K extends string = string>(
  def: Omit<ResourceDef<F, K>, 'actions'> & { actions?: readonly ResourceAction[] },
): ResourceDef<F, K> {
  return { ...def, actions: def.actions ?? allActions };
}

/** Endpoint paths of a resource (their shapes: docs/api.md). */
export const resourcePaths = (def: Pick<ResourceDef, 'base' | 'names'>) => ({
  page: `${def.base}/page`,
  detail: `${def.base}/detail`,
  save: `${def.base}/${def.names?.save ?? 'save'}`,
  edit: `${def.base}/edit`,
  remove: `${def.base}/${def.names?.remove ?? 'remove'}`,
  editPublished: `${def.base}/edit-published`,
  list: `${def.base}/list`,
  publish: `${def.base}/publish`,
  saveOrUpdate: `${def.base}/${def.names?.saveOrUpdate ?? 'saveOrUpdate'}`,
});

export const resourcePermissions = (def: Pick<ResourceDef, 'permission'>) => ({
  view: `${def.permission}:view`,
  edit: `${def.permission}:edit`,
  remove: `${def.permission}:remove`,
});

/** The Chinese labels of a resource's fields, for messages that name a field. */
export const labelsOf = (def: { fields: Fields }): Record<string, string> => ({
  id: '编号',
  ...Object.fromEntries(Object.entries(def.fields).map(([k, f]) => [k, f.label])),
});

export const resourceMessages = {
  notFound: (def: Pick<ResourceDef, 'label'>) => `该${def.label}不存在或已被删除，请刷新列表后重试`,
  duplicate: (def: Pick<ResourceDef, 'label'>, label: string) =>
    `已存在${label}相同的${def.label}，请换一个${label}`,
  duplicateWithin: (def: Pick<ResourceDef, 'label'>, label: string, scopeLabel: string) =>
    `同一${scopeLabel}下已存在${label}相同的${def.label}，请换一个${label}`,
  removed: (n: number) => `已删除 ${n} 条记录`,
  saved: messages.ok,
};
