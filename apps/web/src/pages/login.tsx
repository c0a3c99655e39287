import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Input, type InputRef } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { checkPassword, checkUsername, messages, type Check } from '@cowork/contract';
import { Logo } from '../layout/Logo.tsx';
import { safeReturnPath, takeSignOutReason } from '../lib/navigation.ts';
import { mergeUserInfo, setTokens } from '../lib/session.ts';
import { preloadScreen } from '../router.tsx';
import './login.css';

type Field = 'username' | 'password';
type Values = Record<Field, string>;
const checks: Record<Field, Check> = { username: checkUsername, password: checkPassword };
const fields: Field[] = ['username', 'password'];

/**
 * What signing in needs beyond drawing the page: the request layer (axios, the toasts), the shell's
 * query cache and the code of the screen it opens. Asked for at the first keystroke, so it is there
 * by the time 登录 is pressed, and kept out of the script the page needs to show.
 */
const loadSignIn = (returnPath: string) => {
  preloadScreen(returnPath);
  return Promise.all([import('../lib/request.ts'), import('../lib/query-client.ts')]);
};

/**
 * 登录 (/login, no layout). Signs in with the password grant, stores the tokens and the user info,
 * then returns to the `url` the user was sent from, if it is a path on this site. Wrong
 * credentials (400) and throttling (429) are toasted by the request interceptor.
 *
 * Two required fields do not need antd's Form (with its validator and field store, about a tenth of
 * the page's script): each field is checked by the contract's check as it changes and all of them
 * on 登录, and the message shows under the field, as Form.Item shows it.
 */
export default function LoginPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [values, setValues] = useState<Values>({ username: '', password: '' });
  const [errors, setErrors] = useState<Partial<Values>>({});
  const [submitting, setSubmitting] = useState(false);
  // Why the console sent the user here (signed out elsewhere, the session expired), said once.
  const [reason] = useState(takeSignOutReason);
  const inputs = { username: useRef<InputRef>(null), password: useRef<InputRef>(null) };
  const signIn = useRef<ReturnType<typeof loadSignIn>>(undefined);
  const returnPath = safeReturnPath(search.get('url'));
  const loadOnce = () => (signIn.current ??= loadSignIn(returnPath));

  useEffect(() => {
    document.title = '登录 - 共享办公管理后台';
  }, []);

  const change = (field: Field, value: string) => {
    void loadOnce();
    setValues((before) => ({ ...before, [field]: value }));
    setErrors((before) => ({ ...before, [field]: checks[field](value) }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = Object.fromEntries(fields.map((field) => [field, checks[field](values[field])]));
    setErrors(found);
    const invalid = fields.find((field) => found[field]);
    if (invalid) {
      inputs[invalid].current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const [{ requestPasswordToken }, { queryClient, queryKeys }] = await loadOnce();
      const answer = await requestPasswordToken(values.username.trim(), values.password);
      setTokens(answer.access_token, answer.refresh_token, undefined, answer.expires_in);
      // The shell's query cache starts with the user info from the answer, so the shell does not
      // ask for it again.
      queryClient.clear();
      queryClient.setQueryData(queryKeys.userInfo, mergeUserInfo(answer.user_info));
      navigate(returnPath, { replace: true });
    } catch {
      // The interceptor has toasted why; a chunk that failed to load is tried again next time.
      signIn.current = undefined;
      setSubmitting(false);
    }
  };

  const fieldProps = (field: Field) => ({
    ref: inputs[field],
    value: values[field],
    onChange: (event: { target: { value: string } }) => change(field, event.target.value),
    status: errors[field] ? ('error' as const) : undefined,
    'aria-invalid': !!errors[field],
    'aria-describedby': errors[field] ? `login-${field}-error` : undefined,
  });
  const error = (field: Field) =>
    errors[field] && (
      <div id={`login-${field}-error`} className="login-field-error" role="alert">
        {errors[field]}
      </div>
    );

  return (
    <main className="login-page">
      <section className="login-card">
        <div className="login-brand">
          <Logo size={36} />
          <p className="login-subtitle">面向运营团队的后台管理系统</p>
        </div>
        {reason && <Alert className="login-reason" type="warning" showIcon title={reason} />}
        <form onSubmit={(event) => void submit(event)} autoComplete="on" noValidate>
          <div className="login-field">
            <Input
              {...fieldProps('username')}
              size="large"
              prefix={<UserOutlined />}
              placeholder={messages.usernamePlaceholder}
              autoComplete="username"
              autoFocus
            />
            {error('username')}
          </div>
          <div className="login-field">
            <Input.Password
              {...fieldProps('password')}
              size="large"
              prefix={<LockOutlined />}
              placeholder="请输入密码"
              autoComplete="current-password"
            />
            {error('password')}
          </div>
          <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
            登录
          </Button>
        </form>
      </section>
    </main>
  );
}
