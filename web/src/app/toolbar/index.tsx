// SPDX-License-Identifier: MIT
// Above the calculator: the tabs, the unit, and the actions on the current view.
import { CopyButton } from '../../ui/copy-button';
import type { ByteUnit, Mode } from '../inputs';
import { ModeTabs } from '../mode-tabs';
import { preloadTab } from '../preload-tab';
import { UnitToggle } from '../unit-toggle';

interface Props {
  mode: Mode;
  unit: ByteUnit;
  onMode: (mode: Mode) => void;
  onUnit: (unit: ByteUnit) => void;
  /** "Copy link", where the inputs are kept in the link. */
  copyLink?: () => Promise<string>;
  /** "Open full page" (embed mode): the link to the current inputs. */
  openLink?: string;
  /** "Pin to compare", when there is a result to pin. */
  onPin?: () => void;
  pinned: boolean;
}

export function Toolbar({ mode, unit, onMode, onUnit, copyLink, openLink, onPin, pinned }: Props) {
  return (
    <div class="toolbar">
      <ModeTabs mode={mode} onMode={onMode} onIntent={preloadTab} />
      <UnitToggle unit={unit} onUnit={onUnit} />
      <div class="actions">
        {copyLink && <CopyButton label="Copy link" testId="copy-link" text={copyLink} />}
        {openLink !== undefined && (
          <a href={openLink} target="_blank" rel="noopener" data-testid="open-full">
            Open full page
          </a>
        )}
        {onPin && (
          <button type="button" data-testid="pin" onClick={onPin} title="Keep this result to compare with the next one">
            {pinned ? 'Pin this instead' : 'Pin to compare'}
          </button>
        )}
      </div>
    </div>
  );
}
