/**
 * The dialogs of 设备管理, one open at a time: a device's commands, detail, who can open it, passwords and card rules,
 * registering a waiting device, and a secret shown once after registering or 重置配置.
 */
import type { DeviceRecord, WaitingDevice } from '@cowork/contract';
import { WhoCanOpenDrawer } from '../access/AccessViews.tsx';
import { CommandModal, OpenDoorModal, TotpModal } from './CommandDialogs.tsx';
import { DeviceDetailDrawer } from './DeviceDetailDrawer.tsx';
import { AdminPasswordsModal, CardRulesModal } from './DeviceLists.tsx';
import { RegisterModal, SecretModal } from './RegisterDialogs.tsx';

/** The dialogs opened on a device, by the names of its row's buttons and 更多 menu items. */
export const deviceDialogKinds = [
  'open',
  'totp',
  'detail',
  'access',
  'admin-passwords',
  'card-rules',
  'refresh-screen',
  'clear',
  'reset-config',
] as const;
export type DeviceDialogKind = (typeof deviceDialogKinds)[number];

export const isDeviceDialogKind = (key: string): key is DeviceDialogKind =>
  deviceDialogKinds.some((kind) => kind === key);

export type DeviceDialog =
  | { kind: DeviceDialogKind; device: DeviceRecord }
  | { kind: 'register'; waiting: WaitingDevice }
  | { kind: 'secret'; title: string; sn: string; secret: string };

export function DeviceDialogs({
  dialog,
  onDialog,
  onRegistered,
}: {
  dialog: DeviceDialog | null;
  onDialog: (dialog: DeviceDialog | null) => void;
  /** A device was registered (the screen shows the device list again). */
  onRegistered: () => void;
}) {
  const close = () => onDialog(null);
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'register':
      return (
        <RegisterModal
          waiting={dialog.waiting}
          onClose={close}
          onRegistered={(secret) => {
            onRegistered();
            onDialog({ kind: 'secret', title: '设备已注册', sn: dialog.waiting.sn, secret });
          }}
        />
      );
    case 'secret':
      return <SecretModal {...dialog} onClose={close} />;
    case 'open':
      return <OpenDoorModal device={dialog.device} onClose={close} />;
    case 'totp':
      return <TotpModal device={dialog.device} onClose={close} />;
    case 'detail':
      return <DeviceDetailDrawer device={dialog.device} onClose={close} />;
    case 'access':
      return (
        <WhoCanOpenDrawer
          target={{ kind: 'device', id: dialog.device.id, name: dialog.device.name }}
          onClose={close}
        />
      );
    case 'admin-passwords':
      return <AdminPasswordsModal device={dialog.device} onClose={close} />;
    case 'card-rules':
      return <CardRulesModal device={dialog.device} onClose={close} />;
    case 'refresh-screen':
    case 'clear':
    case 'reset-config':
      return (
        <CommandModal
          kind={dialog.kind}
          device={dialog.device}
          onClose={close}
          onSecret={(secret) =>
            onDialog({ kind: 'secret', title: '设备已重置配置', sn: dialog.device.sn, secret })
          }
        />
      );
  }
}
