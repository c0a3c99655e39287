import { describe, expect, it } from 'vitest';
import { isOwnFileUrl, ownFileUrl } from '../src/urls.ts';

describe('own file addresses', () => {
  it('takes the files this system serves', () => {
    for (const url of [
      '/file/uploads/20250101/3f2a9c.png',
      '/file/images/admin/system.svg',
      '/demo/banner-1.svg',
    ])
      expect(isOwnFileUrl(url), url).toBe(true);
  });

  it('refuses script, data, other hosts and path tricks', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'https://evil.example/x.png',
      '//evil.example/x.png',
      '/file/uploads/../../etc/passwd',
      '/file/uploads//evil.example/x.png',
      '/file/uploads/a b.png',
      '/other/x.png',
      '',
    ])
      expect(isOwnFileUrl(url), url).toBe(false);
  });

  it('says what to do, in Chinese', () => {
    const result = ownFileUrl('图片').safeParse('javascript:alert(1)');
    expect(result.error?.issues[0].message).toBe('请通过上传按钮上传，只能使用本系统上传的文件地址');
  });
});
