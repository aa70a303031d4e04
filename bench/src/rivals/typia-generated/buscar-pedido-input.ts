import * as __typia_transform__validateReport from "typia/lib/internal/_validateReport";
import * as __typia_transform__createStandardSchema from "typia/lib/internal/_createStandardSchema";
import { tags } from 'typia';
export interface BuscarPedidoInput {
    /** Número do pedido no formato A-1234. */
    numero: string & tags.Pattern<'^A-\\d{4}$'>;
}
export const validateBuscarPedidoInput = (() => { const _io0 = (input: any): boolean => "string" === typeof input.numero && RegExp("^A-\\d{4}$").test(input.numero); const _vo0 = (input: any, _path: string, _exceptionable: boolean = true): boolean => ["string" === typeof input.numero && (RegExp("^A-\\d{4}$").test(input.numero) || _report(_exceptionable, {
        path: _path + ".numero",
        expected: "string & Pattern<\"^A-\\\\d{4}$\">",
        value: input.numero
    })) || _report(_exceptionable, {
        path: _path + ".numero",
        expected: "(string & Pattern<\"^A-\\\\d{4}$\">)",
        value: input.numero
    })].every((flag: boolean) => flag); const __is = (input: any): input is BuscarPedidoInput => "object" === typeof input && null !== input && _io0(input); let errors: any; let _report: any; return __typia_transform__createStandardSchema._createStandardSchema((input: any): import("typia").IValidation<BuscarPedidoInput> => {
    if (false === __is(input)) {
        errors = [];
        _report = (__typia_transform__validateReport._validateReport as any)(errors);
        ((input: any, _path: string, _exceptionable: boolean = true) => ("object" === typeof input && null !== input || _report(true, {
            path: _path + "",
            expected: "BuscarPedidoInput",
            value: input
        })) && _vo0(input, _path + "", true) || _report(true, {
            path: _path + "",
            expected: "BuscarPedidoInput",
            value: input
        }))(input, "$input", true);
        const success = 0 === errors.length;
        return success ? {
            success,
            data: input
        } : {
            success,
            errors,
            data: input
        } as any;
    }
    return {
        success: true,
        data: input
    } as any;
}); })();
