import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { messages } from '@cowork/contract';
import { Logo } from '../layout/Logo.tsx';
import { safeReturnPath, takeSignOutReason } from '../lib/navigation.ts';
import { requestPasswordToken } from '../lib/request.ts';
import { rules } from '../lib/rules.ts';
import { mergeUserInfo, setTokens } from '../lib/session.ts';
import './login.css';

interface LoginForm {
  username: string;
  password: string;
}

/**
 * 登录 (/login, no layout). Signs in with the password grant, stores the tokens and the user info,
 * then returns to the `url` the user was sent from, if it is a path on this site. Wrong
 * credentials (400) and throttling (429) are toasted by the request interceptor.
 */
export default function LoginPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [submitting, setSubmitting] = useState(false);
  // Why the console sent the user here (signed out elsewhere, the session expired), said once.
  const [reason] = useState(takeSignOutReason);

  useEffect(() => {
    document.title = '登录 - 共享办公管理后台';
  }, []);

  const submit = async ({ username, password }: LoginForm) => {
    setSubmitting(true);
    try {
      // The shell's query cache loads while the credentials are checked; it starts with the user
      // info from the answer, so the shell does not ask for it again.
      const [answer, { queryClient, queryKeys }] = await Promise.all([
        requestPasswordToken(username.trim(), password),
        import('../lib/query-client.ts'),
      ]);
      setTokens(answer.access_token, answer.refresh_token, undefined, answer.expires_in);
      queryClient.clear();
      queryClient.setQueryData(queryKeys.userInfo, mergeUserInfo(answer.user_info));
      navigate(safeReturnPath(search.get('url')), { replace: true });
    } catch {
      setSubmitting(false);
    }
  };

  return (
    <main className="login-page">
      <section className="login-card">
        <div className="login-brand">
          <Logo size={36} />
          <p className="login-subtitle">面向运营团队的后台管理系统</p>
        </div>
        {reason && <Alert className="login-reason" type="warning" showIcon title={reason} />}
        <Form<LoginForm> size="large" onFinish={submit} autoComplete="on" requiredMark={false}>
          <Form.Item name="username" rules={rules.username}>
            <Input
              prefix={<UserOutlined />}
              placeholder={messages.usernamePlaceholder}
              autoComplete="username"
              autoFocus
            />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: messages.passwordRequired }]}>
            <Input.Password
              prefix={<LockOutlined />}
              placeholder="请输入密码"
              autoComplete="current-password"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            登录
          </Button>
        </Form>
      </section>
    </main>
  );
}
