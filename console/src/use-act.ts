import { useState } from 'preact/hooks';

/** Calls `action`, then `done`; a refusal shows as the form's error. */
export function useAct(done: () => void) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      done();
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { act, error, busy };
}
