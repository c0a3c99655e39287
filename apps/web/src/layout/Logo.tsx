/** The product mark and name shown in the header and on the login page. */
export function Logo({ size = 28, light = false }: { size?: number; light?: boolean }) {
  return (
    <span className={`shell-logo${light ? ' shell-logo-light' : ''}`}>
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="#1677ff" />
        <path d="M8 24V12l8-5 8 5v12h-5v-7h-6v7z" fill="#fff" />
      </svg>
      <span className="shell-logo-text">共享办公管理后台</span>
    </span>
  );
}
