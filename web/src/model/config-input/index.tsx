// SPDX-License-Identifier: MIT
// Where the model comes from: a bundled preset (searchable), a pasted config.json (or one opened
// or dropped as a file), or numbers.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CoreError } from '../../core/types';
import type { ModelKind, ModelNumbers } from '../model-inputs';
import type { Preset } from '../presets';
import { oversizedPaste, readConfigFile } from '../config-file';
import { isModelFile } from '../model-file';
import { ModelFileSummary, NumbersForm } from '../lazy';
import { PresetPicker } from '../preset-picker';
import { repoReference } from '../repo-reference';
import type { ModelState } from '../use-model';
import { largeConfigLength } from '../large-config';
import { memo } from '../../ui/memo';

const characterCount = (length: number) => `${(length / 1e6).toFixed(1)} million characters`;

interface Props {
  presets: Preset[];
  modelKind: ModelKind;
  presetId: string;
  configText: string;
  numbers: ModelNumbers;
  error?: CoreError;
  /** A large paste being read off the main thread, and how the last one was read. */
  reading?: ModelState['reading'];
  largeRead?: ModelState['largeRead'];
  onPreset: (id: string) => void;
  onText: (text: string) => void;
  onKind: (kind: ModelKind) => void;
  onNumbers: (numbers: ModelNumbers) => void;
}

/** Drawn again only when one of its props changes: the InputsColumn's handlers are stable. */
export const ConfigInput = memo(function ConfigInput(props: Props) {
  const { presets, modelKind, presetId, configText, numbers, error, reading, largeRead } = props;
  const { onPreset, onText, onKind, onNumbers } = props;
  const fromNumbers = modelKind === 'numbers';
  const [fileError, setFileError] = useState<string | undefined>();
  const [dragging, setDragging] = useState(false);
  // A preset's config.json is folded away (a preset user never needs it); one click shows it.
  const [configOpen, setConfigOpen] = useState(false);
  const showConfig = modelKind !== 'preset' || configOpen || Boolean(error);
  const textArea = useRef<HTMLTextAreaElement>(null);
  // Picking a preset folds its config.json again.
  useEffect(() => setConfigOpen(false), [presetId]);
  useEffect(() => {
    if (configOpen) textArea.current?.focus();
  }, [configOpen]);
  const fileInput = useRef<HTMLInputElement>(null);
  // A text area holding megabytes costs the browser seconds of layout at every width change: a large
  // paste is shown as a summary (removed before the browser lays the text out), its text on request.
  const [showLargeText, setShowLargeText] = useState(false);
  const large = configText.length > largeConfigLength;
  // The summary's first button takes the focus from a text area a large paste replaced.
  const summaryButton = useRef<HTMLButtonElement>(null);
  const focusSummary = useRef(false);
  useEffect(() => {
    if (!large) setShowLargeText(false);
    else if (focusSummary.current) summaryButton.current?.focus();
    focusSummary.current = false;
  }, [large]);
  // A hub URL or org/name pasted: say what to paste instead of the JSON parser's message.
  const reference = error && !fromNumbers ? repoReference(configText) : undefined;
  // A GGUF or safetensors file is sized from its header (docs/model-files.md), not read as config.json.
  const [modelFile, setModelFile] = useState<File | undefined>();
  const load = async (file: File | undefined) => {
    if (!file) return;
    if (await isModelFile(file)) {
      setFileError(undefined);
      setModelFile(file);
      return;
    }
    const result = await readConfigFile(file);
    if ('error' in result) setFileError(result.error);
    else {
      setFileError(undefined);
      onText(result.text);
    }
  };
  return (
    <section
      class={dragging ? 'input-panel dragging' : 'input-panel'}
      aria-labelledby="model-heading"
      data-testid="config-drop"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        void load(e.dataTransfer?.files[0]);
      }}
    >
      <h2 id="model-heading">Model</h2>
      <fieldset class="segmented">
        <legend class="visually-hidden">How to give the model</legend>
        <label>
          <input
            type="radio"
            name="model-kind"
            value="config"
            data-testid="kind-config"
            checked={!fromNumbers}
            onChange={() => onKind(presetId ? 'preset' : 'pasted')}
          />
          Preset or config.json
        </label>
        <label>
          <input
            type="radio"
            name="model-kind"
            value="numbers"
            data-testid="kind-numbers"
            checked={fromNumbers}
            onChange={() => onKind('numbers')}
          />
          From numbers
        </label>
      </fieldset>
      {fromNumbers ? (
        <NumbersForm numbers={numbers} configText={configText} error={error} onNumbers={onNumbers} />
      ) : (
        <>
          <PresetPicker presets={presets} presetId={presetId} onPreset={onPreset} />
          <input
            ref={fileInput}
            type="file"
            accept=".json,application/json,.gguf,.safetensors"
            hidden
            aria-label="config.json file to open"
            data-testid="config-file"
            onChange={(e) => {
              void load(e.currentTarget.files?.[0]);
              e.currentTarget.value = '';
            }}
          />
          <div class="config-label">
            {showConfig ? (
              <label for="config">config.json</label>
            ) : (
              <button type="button" data-testid="show-config" aria-expanded="false" onClick={() => setConfigOpen(true)}>
                Show or edit config.json
              </button>
            )}
            <button type="button" data-testid="open-config-file" onClick={() => fileInput.current?.click()}>
              Open file…
            </button>
          </div>
          {showConfig && large && !showLargeText && (
            <div class="large-config" data-testid="config-large">
              <p>
                A config.json of {characterCount(configText.length)}, too long to show while you work on it; it is kept
                as pasted.
              </p>
              <button
                type="button"
                ref={summaryButton}
                data-testid="config-large-show"
                onClick={() => setShowLargeText(true)}
              >
                Show and edit the text
              </button>{' '}
              <button type="button" data-testid="config-large-clear" onClick={() => onText('')}>
                Clear
              </button>
            </div>
          )}
          {showConfig && (!large || showLargeText) && (
            <textarea
              ref={textArea}
              id="config"
              data-testid="config"
              spellcheck={false}
              rows={14}
              value={configText}
              aria-invalid={error ? 'true' : 'false'}
              aria-describedby={error ? 'config-error config-help' : 'config-help'}
              onInput={(e) => {
                // One input limit (the core's): an oversized paste is refused before anything parses it.
                const text = e.currentTarget.value;
                const refusal = oversizedPaste(text);
                setFileError(refusal);
                if (refusal) {
                  e.currentTarget.value = configText;
                  return;
                }
                // A large paste gives way to the summary. The text area is emptied first: Chromium
                // takes seconds to remove a focused text area holding megabytes, and none to remove
                // an empty one.
                if (text.length > largeConfigLength && !showLargeText) {
                  focusSummary.current = document.activeElement === e.currentTarget;
                  e.currentTarget.value = '';
                }
                onText(text);
              }}
            />
          )}
          {reading && (
            <p class="help" role="status" data-testid="config-reading">
              Reading this config ({characterCount(reading.length)})…
            </p>
          )}
          {largeRead && !error && (
            <p class="help" data-testid="config-large-read" data-where={largeRead.where}>
              A large config ({characterCount(largeRead.length)}) was read once
              {largeRead.where === 'worker' ? ' in a Web Worker, off the page' : ' on the page'}
              {largeRead.cut ? '; the calculator works from the fields it reads.' : '.'}
            </p>
          )}
          {error && reference && (
            <div id="config-error" class="error" role="alert" data-testid="config-error">
              <p>{reference.message}</p>
              {reference.preset && (
                <button type="button" data-testid="use-repo-preset" onClick={() => onPreset(reference.preset!.id)}>
                  Use the bundled {reference.preset.label}
                </button>
              )}
            </div>
          )}
          {error && !reference && (
            <p id="config-error" class="error" role="alert" data-testid="config-error">
              {error.field ? <strong>{error.field}: </strong> : null}
              {error.message}
            </p>
          )}
          <p id="config-help" class="help">
            Paste a Hugging Face config.json, open it or drop it here; it is read in this page and never sent anywhere.
            A .gguf or .safetensors file is sized from its header alone.
          </p>
        </>
      )}
      {modelFile && <ModelFileSummary file={modelFile} onClose={() => setModelFile(undefined)} />}
      {fileError && (
        <p class="error" role="alert" data-testid="config-file-error">
          {fileError}
        </p>
      )}
    </section>
  );
});
