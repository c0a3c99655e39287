import { Button, Result } from 'antd';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { reloadPage } from '../lib/navigation.ts';

/**
 * Shown when a screen fails to load or render, most often because a new version was deployed
 * while the page was open and its code chunk is gone.
 */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <Result status="404" title="404" subTitle="抱歉，您访问的页面不存在" />;
  }
  console.error(error);
  return (
    <Result
      status="error"
      title="页面加载失败"
      subTitle="页面出现了问题，请刷新页面重试；如果仍然失败，请联系管理员。"
      extra={
        <Button type="primary" onClick={reloadPage}>
          刷新页面
        </Button>
      }
    />
  );
}
