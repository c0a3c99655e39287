import { Button } from 'antd';
import { CloseCircleFilled } from '@ant-design/icons';
import { useRouteError } from 'react-router';
import { reloadPage } from '../lib/navigation.ts';

/**
 * Shown when a screen fails to load or render, most often because a new version was deployed
 * while the page was open and its code chunk is gone. Plain markup rather than antd Result, whose
 * illustrations would weigh on the first load.
 */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div role="alert" style={{ padding: '64px 24px', textAlign: 'center' }}>
      <CloseCircleFilled style={{ fontSize: 56, color: '#ff4d4f' }} />
      <h2 style={{ margin: '20px 0 8px', fontSize: 22, fontWeight: 600 }}>页面加载失败</h2>
      <p style={{ margin: '0 0 24px', color: 'rgba(0,0,0,0.45)' }}>
        页面出现了问题，请刷新页面重试；如果仍然失败，请联系管理员。
      </p>
      <Button type="primary" onClick={reloadPage}>
        刷新页面
      </Button>
    </div>
  );
}
