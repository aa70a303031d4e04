/**
 * `multipleOf` on the decimal a number is written as, exactly: JSON carries `19.99`, not the
 * nearest binary fraction, so `19.99` is a multiple of `0.01` and `0.3` one of `0.1`, where
 * `value % divisor` says otherwise. Both numbers are read from their shortest round-trip text.
 */
export function isDecimalMultiple(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  if (value === 0) return true;
  const a = decimal(value);
  const b = decimal(divisor);
  const exponent = Math.min(a.exponent, b.exponent);
  const scaledValue = a.digits * 10n ** BigInt(a.exponent - exponent);
  const scaledDivisor = b.digits * 10n ** BigInt(b.exponent - exponent);
  return scaledValue % scaledDivisor === 0n;
}

/** `n` as `digits × 10^exponent`, from `String(n)` (`19.99`, `1e-7`, `1.5e+21`). */
function decimal(n: number): { digits: bigint; exponent: number } {
  const [mantissa, power = '0'] = String(Math.abs(n)).split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  return { digits: BigInt(whole + fraction), exponent: Number(power) - fraction.length };
}
