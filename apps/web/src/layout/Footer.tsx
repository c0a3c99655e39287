import { Layout } from 'antd';

export function Footer() {
  return (
    <Layout.Footer data-testid="footer" className="shell-footer">
      © {new Date().getFullYear()} 共享办公管理后台
    </Layout.Footer>
  );
}
