import { lazy, Suspense } from 'react';
import { Col, Empty, Row, Skeleton } from 'antd';
import { AppstoreOutlined, RightOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import type { MenuItem } from '@cowork/contract';
import { summaryQuery } from '../components/dashboard/summary-query.ts';
import { queryClient } from '../lib/query-client.ts';
import { useMenuTree, useUserInfo } from '../lib/user.ts';
import './home.css';

// Its tables and chart are their own chunk, so the shell after sign-in stays small; the chunk and its
// data are both asked for as the route is entered (router.tsx), in parallel with the layout's, not
// in turn once the greeting has rendered.
const dashboardChunk = () => import('../components/dashboard/Dashboard.tsx');
const Dashboard = lazy(dashboardChunk);
export function prefetch(): void {
  void dashboardChunk();
  void queryClient.prefetchQuery(summaryQuery);
}

/** The first page an item leads to: its own url, or the first entry inside it. */
export function firstPage(item: MenuItem): string | undefined {
  if (!item.children.length) return item.url || undefined;
  for (const child of item.children) {
    const url = firstPage(child);
    if (url) return url;
  }
  return undefined;
}

/**
 * 首页: greets the user, shows the dashboard (today's and this month's numbers of the lists they
 * may view, each opening its list) and links to the first screen of each of their menu groups.
 */
export default function HomePage() {
  const { user } = useUserInfo();
  const menu = useMenuTree();
  const groups = (menu.data ?? []).flatMap((item) => {
    const url = firstPage(item);
    return url ? [{ item, url }] : [];
  });

  return (
    <div className="home">
      <h3 className="home-greeting">{`您好，${user.nickname ?? ''}`}</h3>
      <p className="home-intro">欢迎使用共享办公管理后台，请从下方入口或左侧菜单开始工作。</p>
      <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
        <Dashboard />
      </Suspense>
      <h4 className="home-section-title">快捷入口</h4>
      {menu.isPending ? (
        <Skeleton active />
      ) : groups.length === 0 ? (
        <Empty description="您的账号暂未分配任何菜单，请联系管理员授权。" />
      ) : (
        <Row gutter={[16, 16]}>
          {groups.map(({ item, url }) => (
            <Col key={item.id} xs={24} sm={12} lg={8} xl={6}>
              <Link to={url} className="home-card-link">
                <div className="home-card">
                  <span className="home-card-icon">
                    {item.iconBrightUrl || item.iconUrl ? (
                      <img
                        src={item.iconBrightUrl || item.iconUrl || undefined}
                        alt=""
                        width={28}
                        height={28}
                      />
                    ) : (
                      <AppstoreOutlined />
                    )}
                  </span>
                  <span className="home-card-text">
                    <strong>{item.name}</strong>
                    <span>
                      {item.children.length
                        ? item.children.map((child) => child.name).join('、')
                        : '进入页面'}
                    </span>
                  </span>
                  <RightOutlined className="home-card-arrow" />
                </div>
              </Link>
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
