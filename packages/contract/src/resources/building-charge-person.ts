/** 楼宇负责人 (building-charge-person): who manages which buildings, with how to reach them. */
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

export const buildingChargePerson = defineResource({
  key: 'building-charge-person',
  base: `${prefixes.building}/building-charge-person`,
  label: '楼宇负责人',
  permission: 'building:person',
  fields: {
    name: field.text('姓名', { max: 30, search: 'like' }),
    phone: field.phone('手机号', { search: 'prefix' }),
    email: field.email('邮箱', { optional: true }),
    // A person is found by one of the buildings they manage (the server's `where` hook).
    buildingIds: field.references('负责楼宇', `${prefixes.building}/building/list`, {
      search: 'eq',
      list: true,
    }),
    published: field.published(),
  },
});
