/** Reads server-sent events until the stream ends; `onChunk` sees each as it comes. */
export async function readSse(
  response: Response,
  onChunk: (chunk: any) => void = () => undefined,
): Promise<{ chunks: any[]; done: boolean }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const chunks: any[] = [];
  let buffer = '';
  let done = false;
  for (;;) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      if (!data) continue;
      if (data === '[DONE]') done = true;
      else {
        const parsed = JSON.parse(data);
        chunks.push(parsed);
        onChunk(parsed);
      }
    }
  }
  return { chunks, done };
}
