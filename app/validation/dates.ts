/** A date as the screens and the emails write it: "March 5, 2026", in UTC (the jobs' clock). */
export const longDate = (date: Date) =>
  date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  })
