import { Check } from 'lucide-react'
import { cn } from '#app/utils/cn'
import { COLOR_PRESETS, GRADIENT_PRESETS, readableCardColor } from '#app/validation/backgrounds'
import { isHexColor } from '#app/validation/hex-color'

/** `color:#ffffff` or `gradient:blue-ocean`: the value of one swatch. */
export type SwatchValue = string

/**
 * The 8 colour and 6 gradient presets as a radio group (keyboard: arrow keys, as native
 * radios). Works inside a plain form; `onChoose` lets the editor apply a choice at once.
 */
export function BackgroundSwatches({
  name,
  selected,
  onChoose,
  brandColor,
}: {
  name: string
  selected: SwatchValue | null
  onChoose?: (value: SwatchValue) => void
  /**
   * The agency's primary colour (issue 30: a new card starts on it, readableCardColor), offered
   * first unless a preset already is that colour. Any #rrggbb is a valid card background.
   */
  brandColor?: string
}) {
  const brand = isHexColor(brandColor) ? readableCardColor(brandColor) : null
  const colors = [
    ...(brand && !COLOR_PRESETS.some((c) => c.value === brand)
      ? [{ name: 'Brand', value: brand }]
      : []),
    ...COLOR_PRESETS,
  ]
  const swatch = (value: string, label: string, style: React.CSSProperties) => {
    const checked = selected === value
    return (
      <label key={value} className="group flex flex-col items-center gap-1 text-xs" title={label}>
        <input
          type="radio"
          name={name}
          value={value}
          checked={checked}
          onChange={() => onChoose?.(value)}
          className="peer sr-only"
        />
        <span
          className={cn(
            'relative flex h-10 w-10 items-center justify-center rounded-full border border-gray-300 shadow-sm peer-focus-visible:ring-2 peer-focus-visible:ring-brand peer-focus-visible:ring-offset-2',
            checked && 'ring-2 ring-brand ring-offset-2',
          )}
          style={style}
        >
          {checked ? (
            <Check aria-hidden className="h-4 w-4 text-white mix-blend-difference" />
          ) : null}
        </span>
        <span className="text-center text-gray-600 dark:text-gray-400">{label}</span>
      </label>
    )
  }
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-sm font-medium">Card background</legend>
      <p className="text-xs font-medium uppercase tracking-wide text-gray-500 dark:text-gray-400">
        Colours
      </p>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(4rem,1fr))] gap-3">
        {colors.map((c) => swatch(`color:${c.value}`, c.name, { backgroundColor: c.value }))}
      </div>
      <p className="text-xs font-medium uppercase tracking-wide text-gray-500 dark:text-gray-400">
        Gradients
      </p>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(4rem,1fr))] gap-3">
        {GRADIENT_PRESETS.map((g) =>
          swatch(`gradient:${g.id}`, g.name, { backgroundImage: g.css }),
        )}
      </div>
    </fieldset>
  )
}
