import { describe, expect, it } from 'vitest';
import kr from '../../i18n/locales/kr/trade.json';
import { cameraErrorOf, scanRegionOf } from './QrScannerModal';

describe('QR scanner (SPEC §8, §9)', () => {
  it('scans a centred square of two thirds of the smaller video side', () => {
    expect(scanRegionOf(1280, 720)).toEqual({ x: 400, y: 120, width: 480, height: 480 });
    expect(scanRegionOf(600, 900)).toEqual({ x: 100, y: 250, width: 400, height: 400 });
  });

  it('maps camera failures to the three texts of SPEC §8', () => {
    const named = (name: string) => Object.assign(new Error('x'), { name });
    expect(cameraErrorOf('Camera not found.')).toBe('notFound');
    expect(cameraErrorOf(named('NotFoundError'))).toBe('notFound');
    expect(cameraErrorOf(named('NotAllowedError'))).toBe('denied');
    expect(cameraErrorOf(named('NotReadableError'))).toBe('startFailed');
    expect(kr.scanner.errors.notFound).toBe(
      '카메라를 찾을 수 없어요. 카메라가 연결되어 있는지 확인해주세요.',
    );
    expect(kr.scanner.errors.denied).toBe(
      '카메라 권한이 거부됐어요. 브라우저 설정에서 카메라 권한을 허용해주세요.',
    );
    expect(kr.scanner.errors.startFailed).toBe('카메라를 시작할 수 없어요. 다시 시도해주세요.');
  });
});
