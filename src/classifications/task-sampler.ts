import type { ChatMessage } from '../protocol/chat.js';
import { latestUserText } from '../routing/auto-router/classify-task.js';
import type { GenerationRecord } from '../store/schema.js';

/** A recorded request kept for classification, until the pass reduces its text to features. */
export interface HeldSample {
  organization_id: string;
  workspace_id: string;
  day: string;
  model: string;
  tokens: number;
  /** The latest user message's first characters: what the classifier would read, and no more. */
  text: string;
}

export interface SamplerSettings {
  /** The share of chat requests sampled, 0–1. */
  rate: number;
  /** The most samples held between two passes: past it, requests are not sampled. */
  max: number;
}

export const SAMPLER_DEFAULTS: SamplerSettings = { rate: 0.05, max: 500 };

/**
 * Picks a small sample of the recorded chat requests for the task
 * classifications. A request not picked costs one draw; a picked one a
 * bounded copy of the text the classifier reads. Nothing is classified or
 * written here: the background pass takes the samples (classification-pass.ts).
 */
export class TaskSampler {
  private held: HeldSample[] = [];

  constructor(
    private readonly settings: SamplerSettings,
    private readonly random: () => number = Math.random,
  ) {}

  offer(
    messages: readonly ChatMessage[],
    row: Pick<GenerationRecord, 'organization_id' | 'workspace_id' | 'model' | 'created_at' | 'tokens_prompt' | 'tokens_completion'>,
  ): void {
    if (this.held.length >= this.settings.max || this.random() >= this.settings.rate) return;
    this.held.push({
      organization_id: row.organization_id,
      workspace_id: row.workspace_id,
      day: row.created_at.slice(0, 10),
      model: row.model,
      tokens: (row.tokens_prompt ?? 0) + (row.tokens_completion ?? 0),
      text: latestUserText(messages),
    });
  }

  /** The samples held, handed over once. */
  take(): HeldSample[] {
    const taken = this.held;
    this.held = [];
    return taken;
  }
}
