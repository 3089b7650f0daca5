// The takings pieces the admin page uses: the PDF exports (the figures come from @deposito/protocol).
export { buildTakingsReportPdf, takingsReportFileName, takingsReportTitle } from './takings-report-pdf';
export type { TakingsReportPdfOptions } from './takings-report-pdf';
export { buildConnectionTestPdf, CONNECTION_TEST_PDF_FILE_NAME } from './connection-test-pdf';
export type { ConnectionTestPdfOptions, ConnectionTestReportRow } from './connection-test-pdf';
export { pdfBytes } from '@deposito/protocol/pdf/pdf-layout';
