/**
 * A deterministic stand-in for a tokenizer: ceil(characters / 4). This is the usual rule of
 * thumb for English text under BPE vocabularies (GPT, Llama, Qwen). It is an APPROXIMATION,
 * used only where no real count exists: by the scripted test engine, and by the HTTP adapter
 * when a server omits `usage`. Counts that matter for reports should come from the engine.
 */
export function approximateTokenCount(text: string): number {
  return Math.ceil(text.length / 4);
}
