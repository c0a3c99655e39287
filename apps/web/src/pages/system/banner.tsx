/**
 * 轮播图 (/system/banner) and 案例新闻 (/system/news): one page, the route decides the type. Each
 * menu lists, searches and creates only its own type; news items also carry an article.
 */
import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { Tag } from 'antd';
import {
  banner,
  bannerPermissionOf,
  bannerTypeOfPath,
  bannerTypes,
  scheduleState,
  scheduleStateLabels,
} from '@cowork/contract/resources/banner';
import { ResourcePage, type ResourceRecord } from '../../components/resource/ResourcePage.tsx';
import { textOf } from '../../lib/values.ts';

const stateColors = { pending: 'blue', showing: 'green', ended: 'default' } as const;

const scheduleColumn = {
  key: 'schedule',
  title: '展示状态',
  render: (_: unknown, record: ResourceRecord) => {
    const state = scheduleState(textOf(record.startAt) ?? null, textOf(record.endAt) ?? null);
    return <Tag color={stateColors[state]}>{scheduleStateLabels[state]}</Tag>;
  },
};

export default function BannerPage() {
  const { pathname } = useLocation();
  const type = bannerTypeOfPath[pathname.replace(/\/$/, '')] ?? 'banner';
  // Each menu's buttons follow its own codes (system:banner:*, system:news:*), as the server does.
  const resource = useMemo(
    () => ({
      ...banner,
      label: bannerTypes.find((t) => t.value === type)!.label,
      permission: bannerPermissionOf[type],
    }),
    [type],
  );
  return (
    <ResourcePage
      // A fresh page per route, so the search form and paging of one menu never leak into the other.
      key={type}
      resource={resource}
      fixedFilters={{ type }}
      hiddenFields={type === 'banner' ? ['content'] : []}
      extraColumns={[scheduleColumn]}
    />
  );
}
