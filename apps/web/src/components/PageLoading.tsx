import { Spin } from 'antd';

/** Shown while a screen's code or the console itself loads. */
export function PageLoading() {
  return (
    <div
      className="page-loading"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: 240 }}
    >
      <Spin size="large" />
    </div>
  );
}
